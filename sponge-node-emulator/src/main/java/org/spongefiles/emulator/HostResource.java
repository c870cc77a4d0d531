package org.spongefiles.emulator;

import java.io.Closeable;
import java.io.IOException;

/**
 * Something the emulator made on the host (a network, a disk, a cgroup, a rack's daemons): held by
 * {@link Teardown} from the moment it is opened, and released exactly once, by its owner's {@code
 * close()} or by the teardown hook, whichever comes first.
 */
public abstract class HostResource implements Closeable {
  /** One step of building a resource on the host. */
  protected interface Step {
    void run() throws IOException;
  }

  private boolean closed;

  /**
   * Hands this resource to {@link Teardown}, then runs {@code build}; if it fails, releases what it
   * made and rethrows.
   */
  protected final void open(Step build) throws IOException {
    Teardown.register(this);
    try {
      build.run();
    } catch (IOException | RuntimeException e) {
      close();
      throw e;
    }
  }

  /** Undoes on the host what this resource made; called once. */
  protected abstract void release() throws IOException;

  @Override
  public final synchronized void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    Teardown.forget(this);
    release();
  }
}
