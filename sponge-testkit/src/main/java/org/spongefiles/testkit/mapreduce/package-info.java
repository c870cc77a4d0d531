/**
 * Test aids for MapReduce jobs: {@link org.spongefiles.testkit.mapreduce.SpillFileProbe} sees every
 * local file a reduce attempt writes while a LocalJobRunner job runs; {@link
 * org.spongefiles.testkit.mapreduce.JobOutput} reads a job's part files back; {@link
 * org.spongefiles.testkit.mapreduce.ReusedRecordBuffer} hands reduce input over in one reused
 * buffer, as Hadoop's merger does.
 *
 * <p>Imports the JDK and Hadoop only.
 */
package org.spongefiles.testkit.mapreduce;
