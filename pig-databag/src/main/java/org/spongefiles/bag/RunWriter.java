package org.spongefiles.bag;

import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import org.apache.pig.backend.hadoop.executionengine.physicalLayer.PhysicalOperator;
import org.apache.pig.data.DataType;
import org.apache.pig.data.InterSedes;
import org.apache.pig.data.InterSedesFactory;
import org.apache.pig.data.Tuple;
import org.spongefiles.core.SpongeFile;

/** Writes tuples into a new SpongeFile of a task: one run, like one of Pig's spill files. */
final class RunWriter {
  private static final InterSedes SEDES = InterSedesFactory.getInterSedesInstance();

  /**
   * Serialization buffer in front of the SpongeFile, whose own writes are synchronized: Pig writes
   * a tuple field by field, a few bytes at a time.
   */
  private static final int BUFFER = 32 << 10;

  private RunWriter() {}

  /**
   * Writes {@code tuples}, in iteration order, into one new SpongeFile of {@code task}.
   *
   * @throws IOException when the file cannot be written; it is then deleted
   */
  static Run write(BagTask task, Iterable<Tuple> tuples, String name) throws IOException {
    SpongeFile file = task.sponge().create(name);
    long count = 0;
    task.memory().hold(BUFFER);
    try {
      try (DataOutputStream out =
          new DataOutputStream(new BufferedOutputStream(file.output(), BUFFER))) {
        for (Tuple tuple : tuples) {
          SEDES.writeDatum(out, tuple, DataType.TUPLE);
          count++;
          if ((count & 0x3fff) == 0) {
            reportProgress();
          }
        }
      }
    } catch (IOException | RuntimeException e) {
      try {
        file.delete();
      } catch (IOException | RuntimeException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e;
    } finally {
      task.memory().free(BUFFER);
    }
    return new Run(file, count);
  }

  /** Tells Hadoop the task is alive during a long spill, as Pig's own bags do. */
  static void reportProgress() {
    if (PhysicalOperator.getReporter() != null) {
      PhysicalOperator.getReporter().progress();
    }
  }
}
