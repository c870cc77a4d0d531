package org.spongefiles.bag;

import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.spongefiles.core.SpongeFile;

/**
 * One spill of a bag: a closed SpongeFile holding {@link #tuples()} tuples in Pig's binary format,
 * in the order the bag wrote them (sorted, for sorted and distinct bags).
 */
final class Run {
  private static final Logger LOG = LoggerFactory.getLogger(Run.class);

  private final SpongeFile file;
  private final long tuples;

  Run(SpongeFile file, long tuples) {
    this.file = file;
    this.tuples = tuples;
  }

  SpongeFile file() {
    return file;
  }

  long tuples() {
    return tuples;
  }

  /** Bytes of the serialized tuples. */
  long bytes() {
    return file.length();
  }

  /** A new reader from the first tuple. */
  RunReader open(BagTask task) throws IOException {
    return new RunReader(this, task);
  }

  /** Frees the run's chunks; a failure is logged, as the chunks are freed with the task anyway. */
  void delete() {
    try {
      file.delete();
    } catch (IOException | RuntimeException e) {
      LOG.warn("Could not delete {}: {}", file, e.toString());
    }
  }

  @Override
  public String toString() {
    return file + " (" + tuples + " tuples)";
  }
}
