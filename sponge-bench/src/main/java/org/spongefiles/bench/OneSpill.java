package org.spongefiles.bench;

import java.io.IOException;
import java.io.OutputStream;
import org.spongefiles.core.SpongeFile;
import org.spongefiles.core.SpongeInputStream;
import org.spongefiles.core.SpongeTask;

/**
 * The spill the {@code transfer} and {@code node} latency loops time: a task's new SpongeFile
 * written whole and closed, then read back whole.
 */
public final class OneSpill {
  private OneSpill() {}

  /** A new SpongeFile of {@code task} holding {@code source}, closed for writing. */
  public static SpongeFile write(SpongeTask task, byte[] source) throws IOException {
    SpongeFile file = task.create("spill");
    try (OutputStream out = file.output()) {
      out.write(source);
    }
    return file;
  }

  /** Reads {@code target.length} bytes of {@code file} into {@code target}. */
  public static void read(SpongeFile file, byte[] target) throws IOException {
    try (SpongeInputStream in = file.input()) {
      in.readNBytes(target, 0, target.length);
    }
  }
}
