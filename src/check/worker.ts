/** A worker thread of `cdk8s-kruise check --jobs` (./jobs.ts): judges the files it takes, on its own. */
import { workerData } from 'worker_threads';
import { workerMain } from './jobs';

workerMain(workerData);
