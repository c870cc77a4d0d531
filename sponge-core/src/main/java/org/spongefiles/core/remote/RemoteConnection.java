package org.spongefiles.core.remote;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.spongefiles.core.tls.TlsContext;
import org.spongefiles.core.tls.TlsOptions;
import org.spongefiles.core.wire.Challenge;
import org.spongefiles.core.wire.ChunkHandle;
import org.spongefiles.core.wire.ChunkHandles;
import org.spongefiles.core.wire.ChunkRange;
import org.spongefiles.core.wire.ClusterSecret;
import org.spongefiles.core.wire.ErrorBody;
import org.spongefiles.core.wire.ErrorCode;
import org.spongefiles.core.wire.Frame;
import org.spongefiles.core.wire.FreeList;
import org.spongefiles.core.wire.Hello;
import org.spongefiles.core.wire.HelloOk;
import org.spongefiles.core.wire.Opcode;
import org.spongefiles.core.wire.Processes;
import org.spongefiles.core.wire.ServerStats;
import org.spongefiles.core.wire.WireException;

/**
 * One authenticated connection to a sponge server, one request at a time (but for an ALLOCATE sent
 * ahead of a WRITE, {@link #writeAndAllocate}). Chunk data is written from and read into the
 * caller's buffers directly. After a failure that leaves the stream in an unknown state the
 * connection is {@linkplain #isBroken() broken} and must be closed.
 */
public final class RemoteConnection implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(RemoteConnection.class);

  private final ServerAddress server;
  private final TimedChannel channel;
  private final ByteBuffer header = ByteBuffer.allocateDirect(Frame.HEADER_SIZE);
  private final ByteBuffer allocateFrame = ByteBuffer.allocateDirect(Frame.HEADER_SIZE + 4);
  private long nextRequestId = 1;
  private int chunkSize;
  private String serverNode;
  private byte[] ticket = new byte[0];
  private boolean broken;
  private final boolean tls;

  private RemoteConnection(ServerAddress server, TimedChannel channel, boolean tls) {
    this.server = server;
    this.channel = channel;
    this.tls = tls;
  }

  /**
   * Connects and authenticates: answers the server's challenge with the task's identity and, when a
   * cluster secret is configured, proves it and checks the server's proof in return.
   *
   * @throws WireException AUTH_FAILED when either side lacks or fails the secret
   */
  public static RemoteConnection open(
      ServerAddress server,
      ClientIdentity identity,
      ClusterSecret secret,
      Duration connectTimeout,
      Duration ioTimeout)
      throws IOException {
    return open(server, identity, secret, connectTimeout, ioTimeout, new byte[0]);
  }

  /**
   * Connects and authenticates in the session of {@code ticket} (issued by this server to this task
   * before; empty starts a new session, whose ticket {@link #ticket()} then returns).
   *
   * @throws WireException AUTH_FAILED also when the server does not accept the ticket
   */
  public static RemoteConnection open(
      ServerAddress server,
      ClientIdentity identity,
      ClusterSecret secret,
      Duration connectTimeout,
      Duration ioTimeout,
      byte[] ticket)
      throws IOException {
    return open(server, identity, secret, null, connectTimeout, ioTimeout, ticket);
  }

  /**
   * {@link #open(ServerAddress, ClientIdentity, ClusterSecret, Duration, Duration, byte[])} over
   * TLS when {@code tls} is not null: the handshake, ticket included, then travels encrypted.
   */
  public static RemoteConnection open(
      ServerAddress server,
      ClientIdentity identity,
      ClusterSecret secret,
      TlsContext tls,
      Duration connectTimeout,
      Duration ioTimeout,
      byte[] ticket)
      throws IOException {
    TimedChannel channel = TimedChannel.connect(server, connectTimeout, ioTimeout, tls);
    RemoteConnection connection = new RemoteConnection(server, channel, tls != null);
    try {
      connection.handshake(identity, secret, ticket);
      return connection;
    } catch (IOException | RuntimeException e) {
      connection.close();
      throw e;
    }
  }

  private void handshake(ClientIdentity identity, ClusterSecret secret, byte[] presented)
      throws IOException {
    Frame first;
    try {
      first = exchange(() -> receive(Frame.MAX_CONTROL_PAYLOAD));
    } catch (WireException e) {
      if (tls || e.code() != ErrorCode.CONNECTION) {
        throw e;
      }
      throw new WireException(
          ErrorCode.CONNECTION,
          server.toString(),
          "no CHALLENGE ("
              + e.reason()
              + "); if that server has "
              + TlsOptions.ENABLED.key()
              + "=true, set it here too",
          e);
    }
    if (first.opcode() == Opcode.ERROR) {
      throw ErrorBody.decode(first.payload(), server.toString());
    }
    if (first.opcode() != Opcode.CHALLENGE) {
      throw new WireException(
          ErrorCode.OUT_OF_ORDER, server.toString(), "expected CHALLENGE, got " + first.opcode());
    }
    Challenge challenge = Challenge.decode(first.payload(), server.toString());
    ClientHandshake handshake =
        new ClientHandshake(identity, secret, "this task", server.toString());
    Hello hello = handshake.answer(challenge, presented);
    Frame reply = call(Opcode.HELLO, Opcode.HELLO_OK, Frame.MAX_CONTROL_PAYLOAD, hello.encode());
    HelloOk welcome = handshake.check(HelloOk.decode(reply.payload(), server.toString()));
    this.chunkSize = challenge.chunkSize;
    this.serverNode = challenge.node;
    this.ticket = welcome.ticket;
  }

  /** Allocates up to {@code count} chunks; fewer when the server has fewer free. */
  public List<ChunkHandle> allocate(int count) throws IOException {
    ByteBuffer body = ByteBuffer.allocate(4).putInt(count).flip();
    Frame reply = call(Opcode.ALLOCATE, Opcode.ALLOCATED, Frame.MAX_CONTROL_PAYLOAD, body);
    return ChunkHandles.decode(reply.payload(), server.toString());
  }

  /** Writes {@code data} (position to limit) into {@code chunk} at {@code offset}. */
  public void write(ChunkHandle chunk, int offset, ByteBuffer data) throws IOException {
    write(chunk, offset, data, () -> {});
  }

  /**
   * Writes {@code data} (position to limit) into {@code chunk} at {@code offset}, running {@code
   * meanwhile} once the request is sent, while the server copies it in and before its answer is
   * read.
   */
  public void write(ChunkHandle chunk, int offset, ByteBuffer data, Runnable meanwhile)
      throws IOException {
    ByteBuffer head = ByteBuffer.allocate(ChunkRange.WRITE_HEAD);
    new ChunkRange(chunk, offset, data.remaining()).putWriteHead(head);
    exchange(
        () -> {
          long id = send(Opcode.WRITE, head.flip(), data);
          meanwhile.run();
          int length = receiveHeader(id, Opcode.WRITTEN, Frame.MAX_CONTROL_PAYLOAD);
          channel.readFully(ByteBuffer.allocate(length));
          return null;
        });
  }

  /**
   * {@link #write(ChunkHandle, int, ByteBuffer, Runnable)} with an ALLOCATE of up to {@code count}
   * chunks sent ahead of the WRITE in the same system call, so refilling the task's reserve of
   * chunks costs no round trip of its own. The server answers both in order; {@code allocated} gets
   * the new chunks before the WRITE's answer is read. A refused ALLOCATE (the server is full, the
   * task over its quota) gives none, and the WRITE goes on: the next allocation asks again and sees
   * the refusal itself.
   */
  public void writeAndAllocate(
      ChunkHandle chunk,
      int offset,
      ByteBuffer data,
      int count,
      Consumer<List<ChunkHandle>> allocated,
      Runnable meanwhile)
      throws IOException {
    ByteBuffer head = ByteBuffer.allocate(ChunkRange.WRITE_HEAD);
    new ChunkRange(chunk, offset, data.remaining()).putWriteHead(head);
    exchange(
        () -> {
          long allocateId = nextRequestId++;
          allocateFrame.clear();
          Frame.putHeader(allocateFrame, Opcode.ALLOCATE, 0, allocateId, 4);
          allocateFrame.putInt(count).flip();
          long writeId = prepare(Opcode.WRITE, ChunkRange.WRITE_HEAD + data.remaining());
          channel.writeFully(allocateFrame, header, head.flip(), data);
          meanwhile.run();
          List<ChunkHandle> more;
          try {
            more = receiveAllocated(allocateId);
          } catch (WireException e) {
            broken = true; // the WRITE's answer is left unread
            throw e;
          }
          allocated.accept(more);
          int length = receiveHeader(writeId, Opcode.WRITTEN, Frame.MAX_CONTROL_PAYLOAD);
          channel.readFully(ByteBuffer.allocate(length));
          return null;
        });
  }

  /** The chunks of a pipelined ALLOCATE's answer; none when the server refused. */
  private List<ChunkHandle> receiveAllocated(long id) throws IOException {
    int length;
    try {
      length = receiveHeader(id, Opcode.ALLOCATED, Frame.MAX_CONTROL_PAYLOAD);
    } catch (WireException e) {
      if (!e.code().isRefusal()) {
        throw e;
      }
      LOG.debug("{} refused to allocate ahead: {}", server, e.reason());
      return List.of();
    }
    ByteBuffer payload = ByteBuffer.allocate(length);
    channel.readFully(payload);
    return ChunkHandles.decode(payload.flip(), server.toString());
  }

  /** Reads {@code dst.remaining()} bytes of {@code chunk} at {@code offset} into {@code dst}. */
  public void read(ChunkHandle chunk, int offset, ByteBuffer dst) throws IOException {
    int length = dst.remaining();
    exchange(
        () -> {
          long id = send(Opcode.READ, new ChunkRange(chunk, offset, length).encodeRead());
          int payload = receiveHeader(id, Opcode.DATA, length);
          if (payload != length) {
            throw new WireException(
                ErrorCode.MALFORMED_FRAME,
                server.toString(),
                "DATA of " + payload + " bytes for a read of " + length);
          }
          channel.readFully(dst);
          return null;
        });
  }

  /** Frees chunks; returns how many the server freed. */
  public int free(List<ChunkHandle> chunks) throws IOException {
    Frame reply = call(Opcode.FREE, Opcode.FREED, 4, ChunkHandles.encode(chunks));
    return reply.payload().getInt();
  }

  public ServerStats stats() throws IOException {
    Frame reply =
        call(Opcode.STATS, Opcode.STATS_REPLY, Frame.MAX_CONTROL_PAYLOAD, ByteBuffer.allocate(0));
    return ServerStats.decode(reply.payload(), server.toString());
  }

  /** Whether each lease of a process on the server's node is held (its process alive). */
  public boolean[] liveness(long[] leases) throws IOException {
    Frame reply =
        call(
            Opcode.LIVENESS,
            Opcode.LIVENESS_REPLY,
            Frame.MAX_CONTROL_PAYLOAD,
            Processes.encodeQuery(leases));
    boolean[] alive = Processes.decodeReply(reply.payload(), server.toString());
    if (alive.length != leases.length) {
      throw new WireException(
          ErrorCode.MALFORMED_FRAME,
          server.toString(),
          alive.length + " answers for " + leases.length + " leases");
    }
    return alive;
  }

  /** Asks a memory tracker for the free list of {@code rack}. */
  public FreeList freeList(String rack) throws IOException {
    Frame reply =
        call(Opcode.FREE_LIST, Opcode.FREE_LIST_REPLY, 4 << 20, FreeList.encodeRequest(rack));
    return FreeList.decode(reply.payload(), server.toString());
  }

  public ServerAddress server() {
    return server;
  }

  /** The server's chunk size, from its challenge. */
  public int chunkSize() {
    return chunkSize;
  }

  public String serverNode() {
    return serverNode;
  }

  /** The session ticket the server issued (or accepted) for this connection. */
  public byte[] ticket() {
    return ticket.clone();
  }

  public boolean isBroken() {
    return broken;
  }

  private Frame call(Opcode request, Opcode expected, int maxReply, ByteBuffer... body)
      throws IOException {
    return exchange(
        () -> {
          long id = send(request, body);
          int length = receiveHeader(id, expected, maxReply);
          ByteBuffer payload = ByteBuffer.allocate(length);
          channel.readFully(payload);
          return new Frame(expected, Frame.FLAG_RESPONSE, id, payload.flip());
        });
  }

  /**
   * Runs one request under the channel's timeout. A refusal leaves the connection usable; any other
   * failure breaks it, and I/O failures are reported as CONNECTION errors naming the server.
   */
  private <T> T exchange(TimedChannel.Request<T> request) throws IOException {
    if (broken) {
      throw new WireException(ErrorCode.CONNECTION, server.toString(), "connection is broken");
    }
    try {
      return channel.request(request);
    } catch (WireException e) {
      if (e.code().closesConnection() || !refusalOrChunkError(e.code())) {
        broken = true;
      }
      throw e;
    } catch (IOException e) {
      broken = true;
      throw new WireException(ErrorCode.CONNECTION, server.toString(), e.toString(), e);
    } catch (RuntimeException e) {
      broken = true; // the answer may be left unread
      throw e;
    }
  }

  private static boolean refusalOrChunkError(ErrorCode code) {
    return code.isRefusal()
        || code == ErrorCode.NO_SUCH_CHUNK
        || code == ErrorCode.INTERNAL
        || code == ErrorCode.NOT_LEADER;
  }

  /** Puts the header of the next request, of {@code length} payload bytes, into {@link #header}. */
  private long prepare(Opcode opcode, int length) {
    long id = nextRequestId++;
    header.clear();
    Frame.putHeader(header, opcode, 0, id, length);
    header.flip();
    return id;
  }

  private long send(Opcode opcode, ByteBuffer... body) throws IOException {
    int length = 0;
    for (ByteBuffer part : body) {
      length += part.remaining();
    }
    long id = prepare(opcode, length);
    ByteBuffer[] all = new ByteBuffer[body.length + 1];
    all[0] = header;
    System.arraycopy(body, 0, all, 1, body.length);
    channel.writeFully(all);
    return id;
  }

  /**
   * Reads a response header for request {@code id}; throws the server's ERROR as a WireException.
   */
  private int receiveHeader(long id, Opcode expected, int maxPayload) throws IOException {
    header.clear();
    channel.readFully(header);
    header.flip();
    Opcode opcode = Opcode.fromCode(header.get(5));
    int limit = opcode == Opcode.ERROR ? Frame.MAX_CONTROL_PAYLOAD : Math.max(maxPayload, 0);
    int length = Frame.checkHeader(header, limit, server.toString());
    long replyId = header.getLong(8);
    if (opcode == Opcode.ERROR) {
      ByteBuffer body = ByteBuffer.allocate(length);
      channel.readFully(body);
      throw ErrorBody.decode(body.flip(), server.toString());
    }
    if (replyId != id || opcode != expected || (header.getShort(6) & Frame.FLAG_RESPONSE) == 0) {
      throw new WireException(
          ErrorCode.OUT_OF_ORDER,
          server.toString(),
          "expected " + expected + " for request " + id + ", got " + opcode + " for " + replyId);
    }
    return length;
  }

  private Frame receive(int maxPayload) throws IOException {
    header.clear();
    channel.readFully(header);
    header.flip();
    int length = Frame.checkHeader(header, maxPayload, server.toString());
    Opcode opcode = Opcode.fromCode(header.get(5));
    ByteBuffer payload = ByteBuffer.allocate(length);
    channel.readFully(payload);
    return new Frame(opcode, header.getShort(6), header.getLong(8), payload.flip());
  }

  @Override
  public void close() {
    broken = true;
    try {
      channel.close();
    } catch (IOException e) {
      // Closing a socket that already failed: nothing left to release.
    }
  }

  @Override
  public String toString() {
    return "connection to " + server + (serverNode == null ? "" : " (" + serverNode + ")");
  }
}
