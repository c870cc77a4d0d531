/**
 * The SpongeFiles paper's median job over skewed numbers (one hot key): the job, its two shuffles
 * (Hadoop's merger and ours, each marking the reduce phase's start), and one run of it with the
 * counters and spill files that show where the spilled bytes went.
 */
package org.spongefiles.workloads.median;
