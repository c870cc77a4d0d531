package org.spongefiles.core.pool;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A pool file that is not a pool this build can use: wrong magic, layout version, byte order or
 * geometry. Such a file is never reformatted silently, since live tasks may be using it; the
 * message says what was found and what to do.
 */
public class PoolFormatException extends IOException {
  private static final long serialVersionUID = 1L;

  private final Path file;

  PoolFormatException(Path file, String problem) {
    super("Pool file " + file + " " + problem);
    this.file = file;
  }

  public Path file() {
    return file;
  }
}
