package org.spongefiles.core.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.EOFException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.spongefiles.testkit.TestDirs;

class ReopeningChannelTest {
  private Path dir;
  private Path file;

  @BeforeEach
  void setUp() throws Exception {
    dir = TestDirs.newShmDir("reopening");
    file = Files.write(dir.resolve("f"), new byte[100]);
  }

  @AfterEach
  void tearDown() {
    Thread.interrupted();
    TestDirs.deleteTree(dir);
  }

  @Test
  void anInterruptedWriteFailsAloneAndTheNextCallWritesOnANewChannel() throws Exception {
    try (ReopeningChannel channel = new ReopeningChannel(file)) {
      channel.writeFully(10, ByteBuffer.wrap(new byte[] {1, 2}));
      Thread.currentThread().interrupt();
      ByteBuffer lost = ByteBuffer.wrap(new byte[] {3});
      assertThatThrownBy(() -> channel.writeFully(12, lost))
          .isInstanceOf(InterruptedIOException.class)
          .hasMessage("interrupted writing " + file);
      assertThat(Thread.interrupted()).isTrue();

      channel.writeFully(12, ByteBuffer.wrap(new byte[] {4}));
      ByteBuffer read = ByteBuffer.allocate(3);
      channel.readFully(10, read);
      assertThat(read.array()).containsExactly(1, 2, 4);
    }
  }

  @Test
  void aReadPastTheEndNamesTheFileAndWhereItEnds() throws Exception {
    try (ReopeningChannel channel = new ReopeningChannel(file)) {
      assertThatThrownBy(() -> channel.readFully(90, ByteBuffer.allocate(20)))
          .isInstanceOf(EOFException.class)
          .hasMessage(file + " ends at byte 100, before byte 101");
    }
  }

  @Test
  void aClosedChannelIsNotReopened() throws Exception {
    ReopeningChannel channel = new ReopeningChannel(file);
    channel.writeFully(0, ByteBuffer.wrap(new byte[] {1}));
    channel.close();
    assertThatThrownBy(() -> channel.readFully(0, ByteBuffer.allocate(1)))
        .isInstanceOf(ClosedChannelException.class);
  }
}
