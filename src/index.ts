export * from './validation/register';
export * from './validation/report';
export * as kruise from '../imports/kruise';
export * from './control-plane';
