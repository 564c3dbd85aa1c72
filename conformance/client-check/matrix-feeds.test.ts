/** The matrix, the feed mistakes at 50 and 100 a page: each variant fails exactly the scenarios of its rule. */
import { cellsOf, describeNaiveCells, naiveClients } from '../../dev/testing/client-check/matrix.ts';

const feedMistakes = Object.fromEntries(Object.entries(naiveClients).filter(([, client]) => client.breaks?.startsWith('client.sync.')));

describeNaiveCells('naive variants of the example client: feeds', cellsOf(feedMistakes, (pageSize) => pageSize !== 1));
