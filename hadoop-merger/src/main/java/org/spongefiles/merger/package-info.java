/**
 * The reduce-side shuffle merge of Hadoop MapReduce with its spills in SpongeFiles: a {@code
 * ShuffleConsumerPlugin}-compatible merge manager, its in-memory and on-SpongeFile merges and
 * counters.
 *
 * <p>Imports sponge-core only; no module but integration imports it.
 */
package org.spongefiles.merger;
