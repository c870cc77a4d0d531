package org.spongefiles.core.remote;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import org.spongefiles.core.tier.FileKey;
import org.spongefiles.core.tier.StoredChunk;
import org.spongefiles.core.tier.TierKind;
import org.spongefiles.core.wire.ChunkHandle;

/** A chunk lent by a sponge server: the server, the chunk handle and, if encrypted, its seal. */
final class RemoteStoredChunk implements StoredChunk {
  private final RemoteTier tier;
  private final FileKey file;
  private final ServerAddress server;
  private final ChunkHandle handle;
  private final int length;
  private final byte[] nonce;
  private final byte[] tag;

  RemoteStoredChunk(
      RemoteTier tier,
      FileKey file,
      ServerAddress server,
      ChunkHandle handle,
      int length,
      byte[] nonce,
      byte[] tag) {
    this.tier = tier;
    this.file = file;
    this.server = server;
    this.handle = handle;
    this.length = length;
    this.nonce = nonce;
    this.tag = tag;
  }

  ServerAddress server() {
    return server;
  }

  ChunkHandle handle() {
    return handle;
  }

  @Override
  public TierKind tier() {
    return TierKind.REMOTE;
  }

  @Override
  public int length() {
    return length;
  }

  @Override
  public void read(long offset, ByteBuffer dst) throws IOException {
    try {
      if (nonce == null) {
        tier.read(server, handle, (int) offset, dst);
        return;
      }
      // GCM authenticates whole chunks: fetch it all, open it, copy the range asked for.
      ByteBuffer ciphertext = ByteBuffer.allocateDirect(length);
      tier.read(server, handle, 0, ciphertext);
      ciphertext.flip();
      ByteBuffer plaintext;
      try {
        plaintext = tier.cipher().open(file, ciphertext, nonce, tag);
      } catch (GeneralSecurityException e) {
        throw new IOException("chunk does not authenticate (" + e.getMessage() + ")", e);
      }
      plaintext.position((int) offset).limit((int) offset + dst.remaining());
      dst.put(plaintext);
    } catch (IOException e) {
      throw new IOException("Cannot read " + describe() + ": " + e.getMessage(), e);
    }
  }

  @Override
  public String describe() {
    return "remote chunk "
        + handle.index
        + " (generation "
        + handle.generation
        + ") on server "
        + server
        + (nonce == null ? "" : ", encrypted");
  }
}
