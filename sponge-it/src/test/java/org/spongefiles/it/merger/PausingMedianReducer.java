package org.spongefiles.it.merger;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.spongefiles.workloads.median.MedianJob;

/**
 * The median reducer, except that the first attempt, on its first group, tells the test it is
 * reading ({@code <pause.dir>/reading}) and waits until the test says the sponge server is dead
 * ({@code <pause.dir>/killed}), so the rest of its reads meet the dead server. Later attempts do
 * not wait.
 */
public class PausingMedianReducer extends MedianJob.MedianReducer {
  static final String PAUSE_DIR = "pause.dir";

  private boolean paused;

  @Override
  protected void reduce(Text number, Iterable<NullWritable> copies, Context context) {
    if (!paused && context.getTaskAttemptID().getId() == 0) {
      paused = true;
      pause(Path.of(context.getConfiguration().get(PAUSE_DIR)));
    }
    super.reduce(number, copies, context);
  }

  private static void pause(Path dir) {
    try {
      Files.createFile(dir.resolve("reading"));
      long deadline = System.nanoTime() + 120_000_000_000L;
      while (!Files.exists(dir.resolve("killed")) && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot signal the test in " + dir, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
