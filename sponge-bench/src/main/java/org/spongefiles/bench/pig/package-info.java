/**
 * The Pig benchmarks: the paper's two Pig queries timed with stock bags and with the shipped
 * recipe, the recipe's least-heap measure against stock Pig, and Pig on Tez with the agent ({@code
 * PigTezBench}). Benchmark code only; imports {@code bench} and the modules; only {@code
 * bench.node} imports it.
 */
package org.spongefiles.bench.pig;
