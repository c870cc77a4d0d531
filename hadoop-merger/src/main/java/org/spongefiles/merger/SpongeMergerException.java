package org.spongefiles.merger;

/** The SpongeFiles merger cannot run for a reduce task; the message names the key to fix. */
public class SpongeMergerException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public SpongeMergerException(String message, Throwable cause) {
    super(message, cause);
  }
}
