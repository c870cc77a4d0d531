package org.spongefiles.merger;

import java.io.IOException;
import org.apache.hadoop.fs.FSInputStream;
import org.spongefiles.core.SpongeInputStream;

/**
 * A SpongeFile reader as Hadoop's {@link FSInputStream}, so {@link
 * org.apache.hadoop.fs.BufferedFSInputStream} can buffer it: Hadoop's IFile reader asks for a byte
 * or two per record length, and each call to a SpongeFile reader checks the file and its chunk.
 */
final class SpongeFSInputStream extends FSInputStream {
  private final SpongeInputStream in;

  SpongeFSInputStream(SpongeInputStream in) {
    this.in = in;
  }

  @Override
  public void seek(long position) throws IOException {
    in.seek(position);
  }

  @Override
  public long getPos() {
    return in.getPos();
  }

  @Override
  public boolean seekToNewSource(long targetPos) {
    return false;
  }

  @Override
  public int read() throws IOException {
    return in.read();
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    return in.read(b, off, len);
  }

  @Override
  public int read(long position, byte[] buffer, int offset, int length) throws IOException {
    return in.read(position, buffer, offset, length);
  }

  @Override
  public void readFully(long position, byte[] buffer, int offset, int length) throws IOException {
    in.readFully(position, buffer, offset, length);
  }

  @Override
  public int available() throws IOException {
    return in.available();
  }

  @Override
  public void close() {
    in.close();
  }
}
