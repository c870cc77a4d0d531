/**
 * The benchmarks of the papers' experiments (spill, median, leaky, tracker, join-key), each a main
 * class writing {@code BENCH} lines, with their workloads and probes; and {@link
 * org.spongefiles.integration.bench.DashboardPlot}, which draws the Grafana dashboard's panels from
 * scrapes of a demo rack.
 *
 * <p>May import every module; no module imports it.
 */
package org.spongefiles.integration.bench;
