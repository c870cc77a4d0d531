/**
 * The workloads end-to-end tests, benchmarks and the demo run, each with its stock baseline: {@code
 * median} (the SpongeFiles paper's skewed median job), {@code leaky} (the leaky-buffer paper's join
 * and group-by reducers), {@code pig} (the paper's Pig queries in a child JVM), {@code cluster} (a
 * rack in one JVM); here {@link org.spongefiles.workloads.BenchReport}, the format of their result
 * lines.
 *
 * <p>May import every shipped module and the test kit; sponge-it, sponge-bench and sponge-examples
 * import it.
 */
package org.spongefiles.workloads;
