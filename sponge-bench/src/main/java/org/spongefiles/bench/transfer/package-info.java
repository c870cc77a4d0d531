/**
 * Transfer micro-benchmarks: a spill to each tier against memcpy and disk (SpillBench, the paper's
 * Table 1) and a sponge server in its own process against a raw loopback socket (ServerBench), with
 * the raw-socket baselines they need, and the metrics scrape other families use too (the tracker at
 * scale is {@code bench.tracker}). Benchmark code only; imports {@code bench} and the modules.
 */
package org.spongefiles.bench.transfer;
