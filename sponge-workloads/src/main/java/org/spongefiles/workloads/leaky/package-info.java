/**
 * The leaky-buffer paper's workloads: the Big Data Benchmark join and group-by jobs with a naive
 * HashMap reducer and with the leaky one, their reduce input kept in one file and replayed in a
 * child JVM at a given heap, and the least-heap sweep over heaps.
 */
package org.spongefiles.workloads.leaky;
