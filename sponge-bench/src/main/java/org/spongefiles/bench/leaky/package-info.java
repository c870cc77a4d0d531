/**
 * The leaky-buffer benchmarks (paper 2): hot-key and uniform join and group-by jobs run with a
 * naive HashMap reducer and with the leaky reducer, least-heap sweeps in forked JVMs, the join-key
 * comparator micro-benchmark, and their plots. Benchmark code only; imports {@code bench} and the
 * modules, nothing imports it.
 */
package org.spongefiles.bench.leaky;
