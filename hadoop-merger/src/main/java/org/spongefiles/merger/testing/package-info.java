/**
 * Test support for reduce-side spills, published in the module so that its tests and the
 * integration benchmarks use one copy: {@link org.spongefiles.merger.testing.SpillFileProbe} sees
 * every local file a reduce attempt writes while a LocalJobRunner job runs; {@link
 * org.spongefiles.merger.testing.JobOutput} reads a job's part files back.
 *
 * <p>Uses the JDK only; nothing in {@code org.spongefiles.merger} imports it.
 */
package org.spongefiles.merger.testing;
