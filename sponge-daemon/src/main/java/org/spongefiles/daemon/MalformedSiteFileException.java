package org.spongefiles.daemon;

/** A configuration file that is not well-formed XML; the message names file, line and column. */
public final class MalformedSiteFileException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  MalformedSiteFileException(String message, Throwable cause) {
    super(message, cause);
  }
}
