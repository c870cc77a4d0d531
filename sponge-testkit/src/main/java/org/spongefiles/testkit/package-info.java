/**
 * Test aids every module's tests share, in test scope (as curator-test is Curator's): temporary
 * directories, child JVMs and their output, random bytes with their digests, a task configuration
 * on a private pool, a configuration counting the reads of each key, a daemon's refused start run
 * in-process. Sub-packages: {@code data} (dataset generators), {@code mapreduce} (a reduce
 * attempt's files watched, a job's output read back, reduce input as Hadoop hands it over), {@code
 * pig} (Pig's memory manager told the heap is full).
 *
 * <p>Imports the JDK, Hadoop and Pig only: no SpongeFiles module, so every module can test with it.
 * No jar an operator installs contains it.
 */
package org.spongefiles.testkit;
