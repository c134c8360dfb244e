export * from './validation/register';
export * as kruise from '../imports/kruise';
