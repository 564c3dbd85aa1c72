/** The matrix, the feed mistakes at one order a page (the longest syncs, in a file of their own so that files run side by side). */
import { cellsOf, describeNaiveCells, naiveClients } from '../../dev/testing/client-check/matrix.ts';

const feedMistakes = Object.fromEntries(Object.entries(naiveClients).filter(([, client]) => client.breaks?.startsWith('client.sync.')));

describeNaiveCells('naive variants of the example client: feeds, one a page', cellsOf(feedMistakes, (pageSize) => pageSize === 1));
