package org.spongefiles.bag.run;

import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import org.apache.pig.backend.hadoop.executionengine.physicalLayer.PhysicalOperator;
import org.apache.pig.data.DataType;
import org.apache.pig.data.InterSedes;
import org.apache.pig.data.InterSedesFactory;
import org.apache.pig.data.Tuple;
import org.spongefiles.bag.task.BagTask;
import org.spongefiles.core.SpongeFile;

/**
 * Writes tuples into a new SpongeFile of a task: one run, like one of Pig's spill files, written at
 * once ({@link #write}) or appended to while a bag is filled ({@link #open}) until {@link #finish}.
 * An open writer counts its serialization buffer in the task's {@link
 * org.spongefiles.bag.task.BagMemory}.
 */
public final class RunWriter {
  private static final InterSedes SEDES = InterSedesFactory.getInterSedesInstance();

  /**
   * Serialization buffer in front of the SpongeFile, whose own writes are synchronized: Pig writes
   * a tuple field by field, a few bytes at a time.
   */
  private static final int BUFFER = 32 << 10;

  private final BagTask task;
  private final SpongeFile file;
  private final DataOutputStream out;
  private long count;
  private boolean done;

  private RunWriter(BagTask task, SpongeFile file, DataOutputStream out) {
    this.task = task;
    this.file = file;
    this.out = out;
  }

  /**
   * A writer of a new run of {@code task}'s.
   *
   * @throws IOException when the SpongeFile cannot be created
   */
  public static RunWriter open(BagTask task, String name) throws IOException {
    SpongeFile file = task.sponge().create(name);
    DataOutputStream out;
    try {
      out = new DataOutputStream(new BufferedOutputStream(file.output(), BUFFER));
    } catch (IOException | RuntimeException e) {
      deleteQuietly(file, e);
      throw e;
    }
    task.memory().hold(BUFFER);
    return new RunWriter(task, file, out);
  }

  /**
   * Writes {@code tuples}, in iteration order, into one new SpongeFile of {@code task}.
   *
   * @throws IOException when the file cannot be written; it is then deleted
   */
  public static Run write(BagTask task, Iterable<Tuple> tuples, String name) throws IOException {
    RunWriter writer = open(task, name);
    try {
      for (Tuple tuple : tuples) {
        writer.append(tuple);
      }
      return writer.finish();
    } catch (IOException | RuntimeException e) {
      writer.abandon(e);
      throw e;
    }
  }

  /** Appends {@code tuple} after those written so far. */
  public void append(Tuple tuple) throws IOException {
    SEDES.writeDatum(out, tuple, DataType.TUPLE);
    count++;
    if ((count & 0x3fff) == 0) {
      reportProgress();
    }
  }

  /** The task whose SpongeFile this writes. */
  public BagTask task() {
    return task;
  }

  /**
   * Closes the file: the run of every tuple appended, readable from now on.
   *
   * @throws IOException when the file cannot be finished; the caller then {@link #abandon}s it
   */
  public Run finish() throws IOException {
    out.close();
    release();
    return new Run(file, count);
  }

  /**
   * Deletes the file, written or not, after {@code failure} (null: it is not wanted), and returns
   * the writer's memory; never throws.
   */
  public void abandon(Throwable failure) {
    deleteQuietly(file, failure);
    release();
  }

  private void release() {
    if (!done) {
      done = true;
      task.memory().free(BUFFER);
    }
  }

  private static void deleteQuietly(SpongeFile file, Throwable failure) {
    try {
      file.delete();
    } catch (IOException | RuntimeException suppressed) {
      if (failure != null) {
        failure.addSuppressed(suppressed);
      }
    }
  }

  /** Tells Hadoop the task is alive during a long spill, as Pig's own bags do. */
  public static void reportProgress() {
    if (PhysicalOperator.getReporter() != null) {
      PhysicalOperator.getReporter().progress();
    }
  }
}
