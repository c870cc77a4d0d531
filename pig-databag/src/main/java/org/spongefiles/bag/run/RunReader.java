package org.spongefiles.bag.run;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.lang.ref.Cleaner;
import org.apache.pig.data.InterSedes;
import org.apache.pig.data.InterSedesFactory;
import org.apache.pig.data.Tuple;
import org.spongefiles.bag.task.BagTask;

/**
 * Reads a run's tuples back from its SpongeFile. It stops after the run's tuple count rather than
 * at an end-of-file exception, so a short file is an error that names the run, not a silent end.
 *
 * <p>It holds the run (see {@link Run#retain()}) and buffers until it reaches the end or is closed.
 * Pig often stops reading a bag early (IsEmpty, a nested LIMIT, a projection of the first tuple)
 * and drops the iterator without a word, so a reader that becomes garbage is closed by the cleaner
 * thread: its buffers go back, its reads are counted and the run can be deleted.
 */
public final class RunReader implements TupleSource {
  private static final InterSedes SEDES = InterSedesFactory.getInterSedesInstance();

  private final Run run;
  private final Cleaner.Cleanable closer;
  private DataInputStream in;
  private long read;

  /** What closing a reader releases; it must not refer to the reader, or it would never be run. */
  private static final class Release implements Runnable {
    private final Run run;
    private final BagTask task;
    private final DataInputStream in;
    private final long held;

    Release(Run run, BagTask task, DataInputStream in, long held) {
      this.run = run;
      this.task = task;
      this.in = in;
      this.held = held;
    }

    @Override
    public void run() {
      try {
        in.close();
      } catch (IOException e) {
        // Closing a SpongeFile reader only returns its buffers and reports its reads; it does
        // not fail.
      } finally {
        task.memory().free(held);
        run.release();
        task.publishCounters();
      }
    }
  }

  /**
   * A reader of {@code run} from its first tuple, with a {@code buffer}-byte buffer; it counts the
   * buffer and a head tuple of {@code tupleBytes} in its task's {@link
   * org.spongefiles.bag.task.BagMemory} until closed.
   *
   * @throws IOException when the run was deleted (its bag was cleared or its task ended) or its
   *     SpongeFile cannot be read
   */
  public RunReader(Run run, BagTask task, int buffer, long tupleBytes) throws IOException {
    this.run = run;
    if (!run.retain()) {
      throw new IOException(
          "Run " + run + " of " + task + " was deleted: its bag was cleared or its task ended");
    }
    DataInputStream stream;
    try {
      stream = new DataInputStream(new BufferedInputStream(run.file().input(buffer), buffer));
    } catch (IOException | RuntimeException e) {
      run.release();
      throw e;
    }
    this.in = stream;
    long held = buffer + tupleBytes;
    task.memory().hold(held);
    this.closer = RunCleaner.CLEANER.register(this, new Release(run, task, stream, held));
  }

  @Override
  public Tuple next() throws IOException {
    if (in == null) {
      return null;
    }
    if (read == run.tuples()) {
      close();
      return null;
    }
    Tuple tuple;
    try {
      tuple = (Tuple) SEDES.readDatum(in);
    } catch (EOFException e) {
      throw new IOException(
          "Run " + run + " ended after " + read + " of " + run.tuples() + " tuples", e);
    }
    read++;
    return tuple;
  }

  /** Reads past {@code count} tuples (Pig's format cannot be skipped without parsing it). */
  public void skip(long count) throws IOException {
    for (long i = 0; i < count; i++) {
      if (next() == null) {
        throw new IOException(
            "Run " + run + " has " + run.tuples() + " tuples; cannot skip past " + count);
      }
    }
  }

  @Override
  public void close() {
    if (in != null) {
      in = null;
      closer.clean();
    }
  }
}
