package org.spongefiles.core.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spongefiles.core.config.ConfigValues;
import org.spongefiles.core.tls.TlsContext;
import org.spongefiles.testkit.TestCertificates;

/**
 * The watchdog: a request past its deadline fails naming the peer; a finished one is left be; its
 * thread runs only while a channel is open.
 */
class TimedChannelTest {

  @Test
  void aPeerThatNeverAnswersTimesTheRequestOut() throws Exception {
    try (ServerSocket silent = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      ServerAddress address = new ServerAddress("127.0.0.1", silent.getLocalPort());
      try (TimedChannel channel =
              TimedChannel.connect(address, Duration.ofSeconds(5), Duration.ofMillis(100), null);
          Socket accepted = silent.accept()) {
        assertThatThrownBy(() -> channel.request(() -> readOneByte(channel)))
            .isInstanceOf(SocketTimeoutException.class)
            .hasMessage("No answer from " + address + " within 100 ms (sponge.remote.io.timeout)");
      }
    }
  }

  @Test
  void aTlsHandshakeWithASilentPeerTimesOutAtTheConnectTimeoutAndLeavesNoChannel(@TempDir Path dir)
      throws Exception {
    TestCertificates ca = TestCertificates.authority(dir, "ca");
    TlsContext tls =
        TlsContext.forClient(ConfigValues.reading(ca.client(new Configuration(false))));
    try (ServerSocket silent = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      ServerAddress address = new ServerAddress("127.0.0.1", silent.getLocalPort());
      assertThatThrownBy(
              () ->
                  TimedChannel.connect(address, Duration.ofMillis(200), Duration.ofSeconds(5), tls))
          .isInstanceOf(SocketTimeoutException.class)
          .hasMessage(
              "No answer from " + address + " within 200 ms (sponge.remote.connect.timeout)");
      await()
          .atMost(Duration.ofSeconds(5))
          .untilAsserted(() -> assertThat(ChannelWatchdog.running()).isFalse());
    }
  }

  @Test
  void aChannelIdleLongerThanTheTimeoutBetweenRequestsStaysOpen() throws Exception {
    try (ServerSocket echo = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      ServerAddress address = new ServerAddress("127.0.0.1", echo.getLocalPort());
      try (TimedChannel channel =
              TimedChannel.connect(address, Duration.ofSeconds(5), Duration.ofMillis(50), null);
          Socket accepted = echo.accept()) {
        InputStream in = accepted.getInputStream();
        OutputStream out = accepted.getOutputStream();
        for (int i = 0; i < 3; i++) {
          out.write(i);
          assertThat(channel.request(() -> readOneByte(channel))).isEqualTo((byte) i);
          Thread.sleep(50 + 3 * ChannelWatchdog.SWEEP_MILLIS);
        }
        channel.writeFully(ByteBuffer.wrap(new byte[] {9}));
        assertThat(in.read()).as("the channel is still open").isEqualTo(9);
      }
    }
  }

  @Test
  void theWatchdogThreadRunsOnlyWhileAChannelIsOpen() throws Exception {
    try (ServerSocket peer = new ServerSocket(0, 2, InetAddress.getLoopbackAddress())) {
      ServerAddress address = new ServerAddress("127.0.0.1", peer.getLocalPort());
      assertThat(watchdogThreads()).as("before any channel").isZero();
      TimedChannel first =
          TimedChannel.connect(address, Duration.ofSeconds(5), Duration.ofSeconds(5), null);
      TimedChannel second =
          TimedChannel.connect(address, Duration.ofSeconds(5), Duration.ofSeconds(5), null);
      assertThat(ChannelWatchdog.running()).isTrue();
      assertThat(watchdogThreads()).isEqualTo(1);
      first.close();
      assertThat(ChannelWatchdog.running()).as("one channel still open").isTrue();
      second.close();
      second.close();
      assertThat(ChannelWatchdog.running()).isFalse();
      await().atMost(Duration.ofSeconds(5)).until(() -> watchdogThreads() == 0);
    }
  }

  private static long watchdogThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.isAlive() && t.getName().equals("sponge-remote-watchdog"))
        .count();
  }

  private static byte readOneByte(TimedChannel channel) throws java.io.IOException {
    ByteBuffer one = ByteBuffer.allocate(1);
    channel.readFully(one);
    return one.get(0);
  }
}
