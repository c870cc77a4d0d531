/**
 * Draws the Grafana dashboard's panels with XChart from real scrapes of a demo rack, for the
 * operations guide. Benchmark code only.
 */
package org.spongefiles.bench.dashboard;
