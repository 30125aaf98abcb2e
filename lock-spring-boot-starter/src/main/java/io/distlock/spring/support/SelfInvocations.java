package io.distlock.spring.support;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.asm.ClassReader;
import org.springframework.asm.ClassVisitor;
import org.springframework.asm.Handle;
import org.springframework.asm.MethodVisitor;
import org.springframework.asm.Opcodes;
import org.springframework.asm.Type;

/**
 * Finds, in a bean class's own bytecode, calls its methods make to its guarded methods: with a Spring AOP proxy such
 * a call ({@code this.generate(…)}) does not go through the proxy, so it takes no lock. The classes of the bean's
 * hierarchy are read once at start-up with Spring's ASM (the instructions only, no debug information). What this
 * cannot see: calls from other classes' code — inner and anonymous classes, lambdas compiled into them, another bean
 * handed {@code this} — and calls through reflection or method handles. A call's receiver is followed on the operand
 * stack ({@link ReceiverStack}), so a call through an injected self-reference (the proxy) or on another instance
 * is not reported, and a method reference bound to {@code this} ({@code this::generate}) is; where an instruction
 * leaves the stack unknown, a call of a guarded method of the class is reported as if on {@code this}.
 */
public final class SelfInvocations {

    private static final Logger logger = LoggerFactory.getLogger(SelfInvocations.class);

    private SelfInvocations() {
    }

    /**
     * The self-invocations of guarded methods in a class.
     *
     * @param userClass the bean's class, not its proxy's
     * @param guarded its guarded methods
     * @return one description per guarded method called so, such as {@code generate(YearMonth) from run()}, in
     *     the order found
     */
    public static List<String> find(Class<?> userClass, Collection<Method> guarded) {
        Map<String, Method> byKey = new LinkedHashMap<>();
        for (Method method : guarded) {
            if (!Modifier.isStatic(method.getModifiers())) {
                byKey.put(method.getName() + Type.getMethodDescriptor(method), method);
            }
        }
        List<Class<?>> hierarchy = new ArrayList<>();
        for (Class<?> type = userClass; type != null && type != Object.class && !isPlatform(type);
                type = type.getSuperclass()) {
            hierarchy.add(type);
        }
        Set<String> owners = new TreeSet<>();
        hierarchy.forEach(type -> owners.add(Type.getInternalName(type)));
        Map<Method, Set<String>> callers = new LinkedHashMap<>();
        for (Class<?> type : hierarchy) {
            scan(type, owners, byKey, callers);
        }
        List<String> found = new ArrayList<>();
        callers.forEach((method, from) -> found.add(signature(method) + " from " + String.join(", ", from)));
        return found;
    }

    private static void scan(Class<?> type, Set<String> owners, Map<String, Method> guarded,
            Map<Method, Set<String>> callers) {
        ClassLoader loader = type.getClassLoader() != null ? type.getClassLoader() : ClassLoader.getSystemClassLoader();
        try (InputStream bytes = loader.getResourceAsStream(Type.getInternalName(type) + ".class")) {
            if (bytes == null) {
                return;
            }
            new ClassReader(bytes).accept(new ClassVisitor(Opcodes.ASM9) {

                @Override
                public @Nullable MethodVisitor visitMethod(int access, String name, String descriptor,
                        @Nullable String signature, String @Nullable [] exceptions) {
                    if ((access & Opcodes.ACC_STATIC) != 0) {
                        // No this to call through.
                        return null;
                    }
                    String caller = caller(name, descriptor);
                    return new ReceiverTracking(new ReceiverStack()) {

                        @Override
                        public void visitMethodInsn(int opcode, String owner, String calledName,
                                String calledDescriptor, boolean isInterface) {
                            boolean onThis = stack.call(calledDescriptor, opcode != Opcodes.INVOKESTATIC);
                            Method called = guarded.get(calledName + calledDescriptor);
                            if (called != null && opcode != Opcodes.INVOKESTATIC && owners.contains(owner) && onThis) {
                                callers.computeIfAbsent(called, key -> new TreeSet<>()).add(caller);
                            }
                        }

                        @Override
                        public void visitInvokeDynamicInsn(String indyName, String indyDescriptor, Handle bootstrap,
                                Object... arguments) {
                            // A method reference bound to this (this::generate) calls it on this, past the proxy.
                            int captured = (Type.getArgumentsAndReturnSizes(indyDescriptor) >> 2) - 1;
                            for (Object argument : arguments) {
                                if (argument instanceof Handle handle && handle.getTag() != Opcodes.H_INVOKESTATIC
                                        && owners.contains(handle.getOwner()) && captured > 0
                                        && stack.mayBeThis(captured - 1)) {
                                    Method called = guarded.get(handle.getName() + handle.getDesc());
                                    if (called != null) {
                                        callers.computeIfAbsent(called, key -> new TreeSet<>())
                                                .add("a method reference in " + caller);
                                    }
                                }
                            }
                            stack.call(indyDescriptor, false);
                        }
                    };
                }
            }, ClassReader.SKIP_DEBUG | ClassReader.EXPAND_FRAMES);
        }
        catch (IOException | RuntimeException ex) {
            logger.debug("Could not read the bytecode of {} to look for calls it makes on itself", type.getName(), ex);
        }
    }

    /** Keeps a {@link ReceiverStack} up to date with every instruction but calls, which subclasses handle. */
    private abstract static class ReceiverTracking extends MethodVisitor {

        final ReceiverStack stack;

        ReceiverTracking(ReceiverStack stack) {
            super(Opcodes.ASM9);
            this.stack = stack;
        }

        @Override
        public void visitFrame(int type, int numLocal, @Nullable Object[] local, int numStack,
                @Nullable Object[] frameStack) {
            stack.frame(numStack, frameStack != null ? frameStack : new Object[0]);
        }

        @Override
        public void visitInsn(int opcode) {
            if (opcode == Opcodes.ACONST_NULL || (opcode >= Opcodes.ICONST_M1 && opcode <= Opcodes.ICONST_5)
                    || (opcode >= Opcodes.FCONST_0 && opcode <= Opcodes.FCONST_2)) {
                stack.push(1);
            }
            else if (opcode == Opcodes.LCONST_0 || opcode == Opcodes.LCONST_1 || opcode == Opcodes.DCONST_0
                    || opcode == Opcodes.DCONST_1) {
                stack.push(2);
            }
            else if (opcode == Opcodes.POP) {
                stack.pop(1);
            }
            else if (opcode == Opcodes.POP2) {
                stack.pop(2);
            }
            else if (opcode == Opcodes.DUP) {
                stack.dup();
            }
            else {
                stack.unknown();
            }
        }

        @Override
        public void visitIntInsn(int opcode, int operand) {
            if (opcode == Opcodes.NEWARRAY) {
                stack.pop(1);
            }
            stack.push(1);
        }

        @Override
        public void visitVarInsn(int opcode, int var) {
            switch (opcode) {
                case Opcodes.ILOAD, Opcodes.FLOAD -> stack.push(1);
                case Opcodes.LLOAD, Opcodes.DLOAD -> stack.push(2);
                case Opcodes.ALOAD -> stack.pushLoad(var, true);
                case Opcodes.ISTORE, Opcodes.FSTORE, Opcodes.ASTORE -> stack.pop(1);
                case Opcodes.LSTORE, Opcodes.DSTORE -> stack.pop(2);
                default -> stack.unknown();
            }
        }

        @Override
        public void visitTypeInsn(int opcode, String type) {
            switch (opcode) {
                case Opcodes.NEW -> stack.push(1);
                case Opcodes.CHECKCAST -> {
                }
                default -> {
                    stack.pop(1);
                    stack.push(1);
                }
            }
        }

        @Override
        public void visitFieldInsn(int opcode, String owner, String name, String descriptor) {
            int size = ReceiverStack.size(descriptor);
            switch (opcode) {
                case Opcodes.GETSTATIC -> stack.push(size);
                case Opcodes.PUTSTATIC -> stack.pop(size);
                case Opcodes.GETFIELD -> {
                    stack.pop(1);
                    stack.push(size);
                }
                default -> stack.pop(size + 1);
            }
        }

        @Override
        public void visitLdcInsn(Object value) {
            stack.push(value instanceof Long || value instanceof Double ? 2 : 1);
        }

        @Override
        public void visitJumpInsn(int opcode, org.springframework.asm.Label label) {
            if (opcode == Opcodes.GOTO) {
                return;
            }
            boolean twoOperands = opcode >= Opcodes.IF_ICMPEQ && opcode <= Opcodes.IF_ACMPNE;
            stack.pop(twoOperands ? 2 : 1);
        }

        @Override
        public void visitTableSwitchInsn(int min, int max, org.springframework.asm.Label fallback,
                org.springframework.asm.Label... labels) {
            stack.pop(1);
        }

        @Override
        public void visitLookupSwitchInsn(org.springframework.asm.Label fallback, int[] keys,
                org.springframework.asm.Label[] labels) {
            stack.pop(1);
        }

        @Override
        public void visitMultiANewArrayInsn(String descriptor, int dimensions) {
            stack.pop(dimensions);
            stack.push(1);
        }
    }

    private static boolean isPlatform(Class<?> type) {
        String name = type.getName();
        return name.startsWith("java.") || name.startsWith("javax.") || name.startsWith("jakarta.")
                || name.startsWith("kotlin.") || name.startsWith("org.springframework.");
    }

    private static String caller(String name, String descriptor) {
        if (name.startsWith("lambda$")) {
            return "a lambda in " + name.split("\\$")[1] + "()";
        }
        return name.equals("<init>") ? "the constructor" : name + "()";
    }

    private static String signature(Method method) {
        StringBuilder text = new StringBuilder(method.getName()).append('(');
        Class<?>[] parameters = method.getParameterTypes();
        for (int i = 0; i < parameters.length; i++) {
            text.append(i > 0 ? ", " : "").append(parameters[i].getSimpleName());
        }
        return text.append(')').toString();
    }
}
