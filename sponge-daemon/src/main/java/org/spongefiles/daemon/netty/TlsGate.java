package org.spongefiles.daemon.netty;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.ssl.NotSslRecordException;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.handler.ssl.SslHandshakeTimeoutException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.channels.ClosedChannelException;
import javax.net.ssl.SSLException;
import org.spongefiles.core.tls.TlsContext;
import org.spongefiles.core.tls.TlsOptions;

/**
 * TLS on a daemon's port: Netty's {@link SslHandler} (over the JDK's engine) first in the pipeline,
 * and this gate after it, which turns a peer that does not complete the TLS handshake (a plaintext
 * client, one that does not trust this daemon's certificate, one too slow) into one counted refusal
 * and a closed connection, instead of an error further down the pipeline.
 *
 * <pre>
 *  socket -> [tls: SslHandler] -> [tls-gate] -> frames -> handler      (plaintext from tls-gate on)
 * </pre>
 */
public final class TlsGate extends ChannelInboundHandlerAdapter {
  /** The refusal reason of a peer that sent bytes that are not TLS. */
  public static final String NOT_TLS = "not_tls";

  /** The refusal reason of a peer whose TLS handshake failed or did not end in time. */
  public static final String TLS_HANDSHAKE = "tls_handshake";

  /** Where a daemon counts and logs its refused peers. */
  public interface Refusals {
    void refused(InetAddress address, String reason, String detail);
  }

  private final Refusals refusals;
  private final long handshakeMillis;
  private boolean refused;

  /** Whether the peer sent any byte; one that closes without a byte only checked the port. */
  private boolean heardFrom;

  private TlsGate(Refusals refusals, long handshakeMillis) {
    this.refusals = refusals;
    this.handshakeMillis = handshakeMillis;
  }

  /**
   * Puts TLS first in {@code pipeline}: a peer must finish its handshake within {@code
   * handshakeMillis}; one that does not is reported to {@code refusals} and closed.
   */
  public static void serve(
      ChannelPipeline pipeline, TlsContext tls, long handshakeMillis, Refusals refusals) {
    SslHandler ssl = new SslHandler(tls.serverEngine());
    ssl.setHandshakeTimeoutMillis(handshakeMillis);
    TlsGate gate = new TlsGate(refusals, handshakeMillis);
    pipeline.addFirst("tls-gate", gate);
    pipeline.addFirst("tls", ssl);
    pipeline.addFirst("tls-heard", new HeardFrom(gate));
  }

  /** Before the {@link SslHandler}: notes that the peer sent something. */
  private static final class HeardFrom extends ChannelInboundHandlerAdapter {
    private final TlsGate gate;

    HeardFrom(TlsGate gate) {
      this.gate = gate;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      gate.heardFrom = true;
      ctx.pipeline().remove(this);
      ctx.fireChannelRead(msg);
    }
  }

  /** TLS for a daemon's own connection to {@code host}:{@code port} (the tracker's polls). */
  public static SslHandler client(TlsContext tls, String host, int port, long handshakeMillis) {
    SslHandler ssl = new SslHandler(tls.clientEngine(host, port));
    ssl.setHandshakeTimeoutMillis(handshakeMillis);
    return ssl;
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object event) throws Exception {
    if (event instanceof SslHandshakeCompletionEvent
        && !((SslHandshakeCompletionEvent) event).isSuccess()) {
      refuse(ctx, ((SslHandshakeCompletionEvent) event).cause());
      return;
    }
    super.userEventTriggered(ctx, event);
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) throws Exception {
    Throwable tls = tlsFailure(cause);
    if (tls == null) {
      super.exceptionCaught(ctx, cause);
      return;
    }
    refuse(ctx, tls);
  }

  private void refuse(ChannelHandlerContext ctx, Throwable cause) {
    if (!heardFrom && cause instanceof ClosedChannelException) {
      // Connected and closed without a byte: a port check (a tracker follower's, a load
      // balancer's), not a failed handshake.
      ctx.close();
      return;
    }
    if (!refused) {
      refused = true;
      SocketAddress remote = ctx.channel().remoteAddress();
      InetAddress address =
          remote instanceof InetSocketAddress ? ((InetSocketAddress) remote).getAddress() : null;
      boolean plaintext = cause instanceof NotSslRecordException;
      refusals.refused(address, plaintext ? NOT_TLS : TLS_HANDSHAKE, detail(remote, cause));
    }
    ctx.close();
  }

  private String detail(SocketAddress remote, Throwable cause) {
    String setting = " (" + TlsOptions.ENABLED.key() + "=true here)";
    if (cause instanceof NotSslRecordException) {
      return remote + " sent plaintext to a TLS port" + setting;
    }
    if (cause instanceof SslHandshakeTimeoutException) {
      return remote
          + " did not complete a TLS handshake within "
          + handshakeMillis
          + " ms; a plaintext client waits silently for the server to speak"
          + setting;
    }
    if (cause instanceof ClosedChannelException) {
      return remote
          + " closed the connection during the TLS handshake (does it trust this daemon's"
          + " certificate?)"
          + setting;
    }
    return remote + " failed the TLS handshake: " + cause + setting;
  }

  private static Throwable tlsFailure(Throwable cause) {
    for (Throwable t = cause; t != null; t = t.getCause()) {
      if (t instanceof NotSslRecordException || t instanceof SSLException) {
        return t;
      }
    }
    return null;
  }
}
