package org.spongefiles.core;

import java.io.IOException;

/** A SpongeFile was used in a state that does not allow it (write after close, read before). */
public class SpongeFileStateException extends IOException {
  private static final long serialVersionUID = 1L;

  private final SpongeFileState state;

  SpongeFileStateException(String file, String attempted, SpongeFileState state) {
    super("Cannot " + attempted + " " + file + ": it is " + state.meaning());
    this.state = state;
  }

  /** The state the file was in. */
  public SpongeFileState state() {
    return state;
  }
}
