/**
 * The matrix, the write mistakes: each variant fails exactly the scenarios of its rule; those that
 * also break a sync rule (a 429 on the feed) at every page size, the others at 100 only.
 */
import { cellsOf, describeNaiveCells, naiveClients } from '../../dev/testing/client-check/matrix.ts';

const writeMistakes = Object.fromEntries(Object.entries(naiveClients).filter(([, client]) => !client.breaks?.startsWith('client.sync.')));

describeNaiveCells('naive variants of the example client: writes', cellsOf(writeMistakes));
