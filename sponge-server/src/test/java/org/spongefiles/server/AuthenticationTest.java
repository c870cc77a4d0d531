package org.spongefiles.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.spongefiles.core.SpongeFile;
import org.spongefiles.core.SpongeInputStream;
import org.spongefiles.core.SpongeOptions;
import org.spongefiles.core.SpongeTask;
import org.spongefiles.core.config.ConfigException;
import org.spongefiles.core.remote.ClientIdentity;
import org.spongefiles.core.remote.RemoteConnection;
import org.spongefiles.core.remote.ServerAddress;
import org.spongefiles.core.tier.TierKind;
import org.spongefiles.core.wire.ChunkHandle;
import org.spongefiles.core.wire.ClusterSecret;
import org.spongefiles.core.wire.ErrorCode;
import org.spongefiles.core.wire.Opcode;
import org.spongefiles.core.wire.WireException;
import org.spongefiles.testkit.RandomBytes;

/** With a cluster secret, a client that cannot prove it can neither write, read nor free. */
class AuthenticationTest {
  private static final String SECRET = "correct horse battery staple";
  @RegisterExtension final ServerFixture fixture = new ServerFixture();
  private SpongeServer server;
  private Path secretFile;

  @BeforeEach
  void setUp() throws Exception {
    secretFile = fixture.tempFile("sponge-secret", ".txt");
    Files.write(secretFile, (SECRET + "\n").getBytes(StandardCharsets.UTF_8));
    Configuration conf = fixture.serverConf("node-a", 32);
    SpongeOptions.AUTH_SECRET_FILE.set(conf, secretFile.toString());
    server = fixture.start(conf);
  }

  private static ClientIdentity identity() {
    return new ClientIdentity("", 4242, 0, 77, "attempt_auth");
  }

  private RemoteConnection connect(ClusterSecret secret) throws Exception {
    return RemoteConnection.open(
        ServerAddress.parse(server.endpoint()),
        identity(),
        secret,
        Duration.ofSeconds(2),
        Duration.ofSeconds(5));
  }

  @Test
  void theRightSecretWorksBothWays() throws Exception {
    Configuration conf = fixture.clientConf("node-x", 0, server);
    SpongeOptions.AUTH_SECRET_FILE.set(conf, secretFile.toString());
    try (SpongeTask task = SpongeTask.open(conf, "attempt_auth_ok")) {
      SpongeFile file = task.create("authenticated");
      byte[] data = RandomBytes.array(1, 3 * ServerFixture.CHUNK);
      try (OutputStream out = file.output()) {
        out.write(data);
      }
      assertThat(task.stats().bytesWritten(TierKind.REMOTE)).isEqualTo(data.length);
      try (SpongeInputStream in = file.input()) {
        assertThat(in.readAllBytes()).isEqualTo(data);
      }
    }
  }

  @Test
  void aClientWithoutTheSecretIsRefusedAndItsChunksGoToDisk() throws Exception {
    assertThatThrownBy(() -> connect(null))
        .isInstanceOf(WireException.class)
        .hasMessageContaining(
            "the server requires the cluster secret; configure sponge.auth.secret.file")
        .extracting(e -> ((WireException) e).code())
        .isEqualTo(ErrorCode.AUTH_FAILED);
    try (SpongeTask task =
        SpongeTask.open(fixture.clientConf("node-x", 0, server), "attempt_no_secret")) {
      SpongeFile file = task.create("unauthenticated");
      try (OutputStream out = file.output()) {
        out.write(RandomBytes.array(2, 2 * ServerFixture.CHUNK));
      }
      assertThat(task.stats().bytesWritten(TierKind.REMOTE)).isZero();
      assertThat(task.stats().bytesWritten(TierKind.DISK)).isEqualTo(2L * ServerFixture.CHUNK);
    }
    assertThat(server.pool().freeChunks()).isEqualTo(32);
  }

  @Test
  void aWrongSecretIsRefused() {
    assertThatThrownBy(
            () ->
                connect(
                    ClusterSecret.of(
                        "not the right secret at all".getBytes(StandardCharsets.UTF_8))))
        .isInstanceOf(WireException.class)
        .hasMessageContaining("AUTH_FAILED")
        .hasMessageContaining("the client's proof of the cluster secret is wrong");
  }

  @Test
  void requestsWithoutHelloAreRefusedAndTheConnectionClosed() throws Exception {
    ClusterSecret secret = ClusterSecret.of(SECRET.getBytes(StandardCharsets.UTF_8));
    ChunkHandle victim;
    try (RemoteConnection owner = connect(secret)) {
      victim = owner.allocate(1).get(0);
    }
    for (Opcode request : new Opcode[] {Opcode.READ, Opcode.WRITE, Opcode.FREE, Opcode.ALLOCATE}) {
      try (RawClient raw = new RawClient(server.address())) {
        assertThat(raw.receive().opcode).isEqualTo(Opcode.CHALLENGE);
        byte[] body = new byte[20];
        java.nio.ByteBuffer.wrap(body)
            .putInt(victim.index)
            .putLong(victim.generation)
            .putInt(0)
            .putInt(16);
        raw.send(request, 0, 9, body);
        RawClient.Received reply = raw.receive();
        assertThat(reply.opcode).isEqualTo(Opcode.ERROR);
        assertThat(reply.error().code()).isEqualTo(ErrorCode.NOT_AUTHENTICATED);
        assertThat(raw.closedByServer()).isTrue();
      }
    }
    assertThat(server.pool().freeChunks()).as("the victim chunk is still allocated").isEqualTo(31);
  }

  @Test
  void aSecretThatIsTooShortIsAConfigurationError() throws Exception {
    Files.write(secretFile, "short".getBytes(StandardCharsets.UTF_8));
    Configuration conf = fixture.clientConf("node-x", 0, server);
    SpongeOptions.AUTH_SECRET_FILE.set(conf, secretFile.toString());
    assertThatThrownBy(() -> SpongeTask.open(conf, "attempt_short"))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("for configuration sponge.auth.secret.file")
        .hasMessageContaining("needs at least 16");
  }

  @Test
  void aClientWithASecretRefusesAServerWithout() throws Exception {
    SpongeServer open = fixture.start("node-b", 8);
    assertThatThrownBy(
            () ->
                RemoteConnection.open(
                    ServerAddress.parse(open.endpoint()),
                    identity(),
                    ClusterSecret.of(SECRET.getBytes(StandardCharsets.UTF_8)),
                    Duration.ofSeconds(2),
                    Duration.ofSeconds(5)))
        .isInstanceOf(WireException.class)
        .hasMessageContaining("this task has a cluster secret but the server does not ask for one");
  }
}
