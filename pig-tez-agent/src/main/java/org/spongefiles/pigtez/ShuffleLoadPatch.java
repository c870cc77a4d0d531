package org.spongefiles.pigtez;

import java.util.function.UnaryOperator;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * The two rewrites of {@code POShuffleTezLoad}'s class file, both by ASM, both leaving every other
 * byte of meaning as it was.
 *
 * <ul>
 *   <li>{@link #patch}: in {@code getNextTuple}, the one {@code new InternalCachedBag(numInputs)}
 *       ({@code NEW}, {@code DUP}, the argument, {@code INVOKESPECIAL <init>(I)V}) becomes {@code
 *       TezGroupBags.newGroupBag(numInputs)} (the argument, {@code INVOKESTATIC}). The argument's
 *       instructions stay; no branch lands between them, so no stack map frame changes.
 *   <li>{@link #refuse}: {@code attachInputs} first calls {@code TezGroupBags.refuse(why)}, so the
 *       task fails when it starts, naming the build it found. A call (not a {@code throw}) keeps
 *       the method's code reachable, so its frames stay valid.
 * </ul>
 */
final class ShuffleLoadPatch {
  private static final String HOOK = "org/spongefiles/pigtez/TezGroupBags";

  private ShuffleLoadPatch() {}

  /** Pig 0.18.0's class with its group bags built by {@link TezGroupBags#newGroupBag}. */
  static byte[] patch(byte[] pigClass) {
    int[] replaced = new int[1];
    byte[] patched =
        rewrite(
            pigClass,
            PigShuffleLoad.BUILDING_METHOD,
            method -> new BagConstruction(method, replaced));
    if (replaced[0] != 1) {
      throw new IllegalStateException(
          PigShuffleLoad.INTERNAL_NAME
              + "."
              + PigShuffleLoad.BUILDING_METHOD
              + " builds "
              + replaced[0]
              + " bags with new InternalCachedBag(int), expected exactly 1");
    }
    return patched;
  }

  /** The class unchanged but for {@code attachInputs}, which fails with {@code why}. */
  static byte[] refuse(byte[] pigClass, String why) {
    return rewrite(
        pigClass,
        PigShuffleLoad.STARTING_METHOD,
        method ->
            new MethodVisitor(Opcodes.ASM9, method) {
              @Override
              public void visitCode() {
                super.visitCode();
                super.visitLdcInsn(why);
                super.visitMethodInsn(
                    Opcodes.INVOKESTATIC, HOOK, "refuse", "(Ljava/lang/String;)V", false);
              }
            });
  }

  /** The class with the methods named {@code methodName} passed through {@code adapter}. */
  private static byte[] rewrite(
      byte[] pigClass, String methodName, UnaryOperator<MethodVisitor> adapter) {
    ClassReader reader = new ClassReader(pigClass);
    ClassWriter writer = new ClassWriter(reader, ClassWriter.COMPUTE_MAXS);
    reader.accept(
        new ClassVisitor(Opcodes.ASM9, writer) {
          @Override
          public MethodVisitor visitMethod(
              int access, String name, String descriptor, String signature, String[] exceptions) {
            MethodVisitor method =
                super.visitMethod(access, name, descriptor, signature, exceptions);
            return name.equals(methodName) ? adapter.apply(method) : method;
          }
        },
        0);
    return writer.toByteArray();
  }

  /** Drops {@code NEW InternalCachedBag; DUP} and turns the constructor call into the hook's. */
  private static final class BagConstruction extends MethodVisitor {
    private final int[] replaced;
    private boolean pendingNew;

    BagConstruction(MethodVisitor method, int[] replaced) {
      super(Opcodes.ASM9, method);
      this.replaced = replaced;
    }

    @Override
    public void visitTypeInsn(int opcode, String type) {
      if (opcode == Opcodes.NEW && type.equals(PigShuffleLoad.BAG)) {
        pendingNew = true;
        return;
      }
      super.visitTypeInsn(opcode, type);
    }

    @Override
    public void visitInsn(int opcode) {
      if (pendingNew && opcode == Opcodes.DUP) {
        return;
      }
      super.visitInsn(opcode);
    }

    @Override
    public void visitMethodInsn(
        int opcode, String owner, String name, String descriptor, boolean isInterface) {
      if (pendingNew
          && opcode == Opcodes.INVOKESPECIAL
          && owner.equals(PigShuffleLoad.BAG)
          && name.equals("<init>")
          && descriptor.equals(PigShuffleLoad.BAG_CONSTRUCTOR)) {
        pendingNew = false;
        replaced[0]++;
        super.visitMethodInsn(
            Opcodes.INVOKESTATIC, HOOK, "newGroupBag", "(I)Lorg/apache/pig/data/DataBag;", false);
        return;
      }
      super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
    }
  }
}
