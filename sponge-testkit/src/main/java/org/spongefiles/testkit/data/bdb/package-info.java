/**
 * The Big Data Benchmark's rankings and user-visits tables, generated for the Pig workloads.
 *
 * <p>May import Hadoop only; no SpongeFiles module.
 */
package org.spongefiles.testkit.data.bdb;
