export * from './validation/register';
export * from './validation/report';
export * as kruise from '../imports/kruise';
export * from './strategies';
export * from './kruise-workload';
export * from './clone-set';
export * from './advanced-stateful-set';
export * from './advanced-daemon-set';
export * from './control-plane';
