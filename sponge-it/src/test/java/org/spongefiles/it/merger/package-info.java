/**
 * The reduce-side merger in real jobs: the median job on LocalJobRunner and on a MiniMRYarnCluster,
 * outputs against a reference computed another way, counters showing where bytes went.
 */
package org.spongefiles.it.merger;
