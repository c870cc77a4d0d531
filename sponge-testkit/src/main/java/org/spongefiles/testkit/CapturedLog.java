package org.spongefiles.testkit;

import java.util.ArrayList;
import java.util.List;
import org.apache.log4j.AppenderSkeleton;
import org.apache.log4j.Level;
import org.apache.log4j.spi.LoggingEvent;

/** A log4j appender that keeps the rendered messages of at least a level, for tests to read. */
public final class CapturedLog extends AppenderSkeleton {
  /** The messages captured so far, oldest first. */
  public final List<String> messages = new ArrayList<>();

  private final Level least;

  /** Keeps every message. */
  public CapturedLog() {
    this(Level.ALL);
  }

  /** Keeps the messages at {@code least} or above. */
  public CapturedLog(Level least) {
    this.least = least;
  }

  @Override
  protected synchronized void append(LoggingEvent event) {
    if (event.getLevel().isGreaterOrEqual(least)) {
      messages.add(event.getRenderedMessage());
    }
  }

  @Override
  public void close() {}

  @Override
  public boolean requiresLayout() {
    return false;
  }
}
