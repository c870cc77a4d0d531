package org.spongefiles.bag;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import org.apache.pig.data.InterSedes;
import org.apache.pig.data.InterSedesFactory;
import org.apache.pig.data.Tuple;

/**
 * Reads a run's tuples back from its SpongeFile. It stops after the run's tuple count rather than
 * at an end-of-file exception, so a short file is an error that names the run, not a silent end.
 */
final class RunReader implements TupleSource {
  private static final InterSedes SEDES = InterSedesFactory.getInterSedesInstance();

  private final Run run;
  private final BagTask task;
  private DataInputStream in;
  private long read;

  RunReader(Run run, BagTask task) throws IOException {
    this.run = run;
    this.task = task;
    int buffer = task.readBuffer();
    this.in = new DataInputStream(new BufferedInputStream(run.file().input(buffer), buffer));
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
  void skip(long count) throws IOException {
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
      try {
        in.close();
      } catch (IOException e) {
        // Closing a SpongeFile reader only returns its buffers; it does not fail.
      }
      in = null;
      task.publishCounters();
    }
  }
}
