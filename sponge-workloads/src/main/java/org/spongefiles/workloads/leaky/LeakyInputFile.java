package org.spongefiles.workloads.leaky;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.io.WritableUtils;
import org.spongefiles.testkit.mapreduce.ReusedRecordBuffer;

/**
 * A reduce task's input, already shuffled and sorted, in a local file: records {@code [vint key
 * length][vint value length][key][value]} in key order, as IFile keeps them. {@link Reader} is the
 * {@code RawKeyValueIterator} a reduce context reads, streaming through a 64 KiB buffer (like the
 * paper's single-node run where all reduce input comes from local disk).
 */
public final class LeakyInputFile {
  private LeakyInputFile() {}

  /** Appends records; the caller writes them in sort order. */
  public static final class Writer implements Closeable {
    private final DataOutputStream out;
    private final DataOutputBuffer key = new DataOutputBuffer();
    private final DataOutputBuffer value = new DataOutputBuffer();
    private long records;

    public Writer(Path file) throws IOException {
      out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(file), 1 << 16));
    }

    public void append(Writable k, Writable v) throws IOException {
      key.reset();
      value.reset();
      k.write(key);
      v.write(value);
      WritableUtils.writeVInt(out, key.getLength());
      WritableUtils.writeVInt(out, value.getLength());
      out.write(key.getData(), 0, key.getLength());
      out.write(value.getData(), 0, value.getLength());
      records++;
    }

    public long records() {
      return records;
    }

    @Override
    public void close() throws IOException {
      out.close();
    }
  }

  /** Reads the records back, reusing its buffers from one record to the next. */
  public static final class Reader extends ReusedRecordBuffer implements Closeable {
    private final DataInputStream in;
    private byte[] bytes = new byte[1 << 12];

    public Reader(Path file) throws IOException {
      in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file), 1 << 16));
    }

    @Override
    public boolean next() throws IOException {
      int keyLength;
      try {
        keyLength = WritableUtils.readVInt(in);
      } catch (EOFException e) {
        return false;
      }
      int valueLength = WritableUtils.readVInt(in);
      if (bytes.length < keyLength + valueLength) {
        bytes = new byte[Math.max(keyLength + valueLength, bytes.length * 2)];
      }
      in.readFully(bytes, 0, keyLength + valueLength);
      record(bytes, 0, keyLength, valueLength);
      return true;
    }

    @Override
    public void close() throws IOException {
      in.close();
    }
  }
}
