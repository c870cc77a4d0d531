package org.spongefiles.bag.run;

import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.spongefiles.bag.task.BagTask;
import org.spongefiles.core.SpongeFile;

/**
 * One spill of a bag: a closed SpongeFile holding {@link #tuples()} tuples in Pig's binary format,
 * in the order the bag wrote them (sorted, for sorted and distinct bags).
 *
 * <p>The file is deleted when its last holder lets go: the bag's list of runs holds it from the
 * start, and each reader and snapshot takes a hold of its own. So a run that a bag merged into
 * another, or dropped in {@code clear()}, stays readable for the readers already open on it.
 */
public final class Run {
  private static final Logger LOG = LoggerFactory.getLogger(Run.class);

  private final SpongeFile file;
  private final long tuples;
  private int holders = 1;

  public Run(SpongeFile file, long tuples) {
    this.file = file;
    this.tuples = tuples;
  }

  public SpongeFile file() {
    return file;
  }

  public long tuples() {
    return tuples;
  }

  /** Bytes of the serialized tuples. */
  public long bytes() {
    return file.length();
  }

  /**
   * A new reader from the first tuple, one of {@code together} readers opened at once (a merge's),
   * whose head tuples are about {@code tupleBytes} each; it holds the run until it is closed.
   */
  public RunReader open(BagTask task, int together, long tupleBytes) throws IOException {
    return new RunReader(this, task, task.memory().readBuffer(together), tupleBytes);
  }

  /** Takes another hold on the file; false when the last holder already let go (it is deleted). */
  public synchronized boolean retain() {
    if (holders == 0) {
      return false;
    }
    holders++;
    return true;
  }

  /** Lets go of one hold; the last one deletes the file. Not to be called under a bag's lock. */
  public void release() {
    synchronized (this) {
      if (holders == 0) {
        throw new IllegalStateException("Run " + this + " was released more often than held");
      }
      if (--holders > 0) {
        return;
      }
    }
    delete();
  }

  /** Frees the run's chunks; a failure is logged, as the chunks are freed with the task anyway. */
  private void delete() {
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
