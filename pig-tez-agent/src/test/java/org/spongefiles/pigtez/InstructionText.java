package org.spongefiles.pigtez;

import java.util.List;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * A method's instructions as text, {@code <opcode number> <operands>} (labels and frames left out).
 */
final class InstructionText extends MethodVisitor {
  private final List<String> out;

  InstructionText(List<String> out) {
    super(Opcodes.ASM9);
    this.out = out;
  }

  static String text(int opcode, Object operands) {
    return opcode + (operands == null ? "" : " " + operands);
  }

  private void add(int opcode, Object operands) {
    out.add(text(opcode, operands));
  }

  @Override
  public void visitInsn(int opcode) {
    add(opcode, null);
  }

  @Override
  public void visitIntInsn(int opcode, int operand) {
    add(opcode, operand);
  }

  @Override
  public void visitVarInsn(int opcode, int var) {
    add(opcode, var);
  }

  @Override
  public void visitTypeInsn(int opcode, String type) {
    add(opcode, type);
  }

  @Override
  public void visitFieldInsn(int opcode, String owner, String name, String descriptor) {
    add(opcode, owner + "." + name + ":" + descriptor);
  }

  @Override
  public void visitMethodInsn(
      int opcode, String owner, String name, String descriptor, boolean isInterface) {
    add(opcode, owner + "." + name + descriptor);
  }

  @Override
  public void visitJumpInsn(int opcode, Label label) {
    add(opcode, null);
  }

  @Override
  public void visitLdcInsn(Object value) {
    add(Opcodes.LDC, value);
  }

  @Override
  public void visitIincInsn(int var, int increment) {
    add(Opcodes.IINC, var + " " + increment);
  }
}
