/** A worker thread of a pool (./pool.ts): does the units it takes, on its own. */
import { workerData } from 'worker_threads';
import { workerMain } from './pool';

workerMain(workerData);
