package org.spongefiles.core.tier;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The one DFS file a SpongeFile's DFS chunks are appended to. It is written through one open
 * stream, closed when the SpongeFile is sealed, and then read with positioned reads.
 */
final class DfsBackingFile {
  private final FileSystem fs;
  private final Path path;
  private FSDataOutputStream out;
  private FSDataInputStream in;
  private long size;
  private byte[] scratch;

  DfsBackingFile(FileSystem fs, Path path) throws IOException {
    this.fs = fs;
    this.path = path;
    this.out = fs.create(path, false);
  }

  synchronized long append(ByteBuffer data) throws IOException {
    if (out == null) {
      throw new IOException(path + " was already sealed");
    }
    long start = size;
    int length = data.remaining();
    if (data.hasArray()) {
      out.write(data.array(), data.arrayOffset() + data.position(), length);
      data.position(data.limit());
    } else {
      if (scratch == null || scratch.length < length) {
        scratch = new byte[length];
      }
      data.get(scratch, 0, length);
      out.write(scratch, 0, length);
    }
    size += length;
    return start;
  }

  synchronized void seal() throws IOException {
    if (out != null) {
      FSDataOutputStream stream = out;
      out = null;
      scratch = null;
      stream.close();
    }
  }

  void readFully(long position, ByteBuffer dst) throws IOException {
    FSDataInputStream input = input();
    int length = dst.remaining();
    if (dst.hasArray()) {
      input.readFully(position, dst.array(), dst.arrayOffset() + dst.position(), length);
      dst.position(dst.limit());
    } else {
      byte[] bytes = new byte[length];
      input.readFully(position, bytes, 0, length);
      dst.put(bytes);
    }
  }

  private synchronized FSDataInputStream input() throws IOException {
    if (out != null) {
      throw new IOException(path + " is still being written");
    }
    if (in == null) {
      in = fs.open(path);
    }
    return in;
  }

  Path path() {
    return path;
  }

  long size() {
    return size;
  }

  synchronized void delete() throws IOException {
    try {
      if (out != null) {
        out.close();
        out = null;
      }
      if (in != null) {
        in.close();
        in = null;
      }
    } finally {
      fs.delete(path, false);
    }
  }
}
