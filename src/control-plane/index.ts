export * from './control-plane';
export * from './options';
export * from './certs';
export * from './feature-gates';
export * from './rollout-control-plane';
export * from './helm-release';
