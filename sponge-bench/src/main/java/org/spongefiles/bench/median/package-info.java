/**
 * The median-per-key benchmark (the SpongeFiles paper's skewed reduce): its data, the MapReduce job
 * run with stock spills and with SpongeFiles, contention from neighbour processes, and probes that
 * count where the spilled bytes went. Benchmark code only; imports {@code bench} and the modules;
 * only {@code bench.node} imports it.
 */
package org.spongefiles.bench.median;
