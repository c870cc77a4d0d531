/**
 * Transfer micro-benchmarks: a spill to each tier against memcpy and disk (SpillBench, the paper's
 * Table 1), a sponge server in its own process against a raw loopback socket (ServerBench), and the
 * tracker's poll round (TrackerBench), with the raw-socket and stat-responder baselines they need.
 * Benchmark code only; imports {@code bench} and the modules.
 */
package org.spongefiles.bench.transfer;
