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
import org.springframework.asm.MethodVisitor;
import org.springframework.asm.Opcodes;
import org.springframework.asm.Type;

/**
 * Finds, in a bean class's own bytecode, calls its methods make to its guarded methods: with a Spring AOP proxy such
 * a call ({@code this.generate(…)}) does not go through the proxy, so it takes no lock. The classes of the bean's
 * hierarchy are read once at start-up with Spring's ASM (the instructions only, no debug information). What this
 * cannot see: calls from other classes' code — inner and anonymous classes, lambdas compiled into them, another bean
 * handed {@code this} — and calls through reflection or method handles; and it does not tell a call on {@code this}
 * from one on another instance of the same class, which is rare and reported alike.
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
                    return new MethodVisitor(Opcodes.ASM9) {

                        @Override
                        public void visitMethodInsn(int opcode, String owner, String calledName,
                                String calledDescriptor, boolean isInterface) {
                            Method called = guarded.get(calledName + calledDescriptor);
                            if (called != null && opcode != Opcodes.INVOKESTATIC && owners.contains(owner)) {
                                callers.computeIfAbsent(called, key -> new TreeSet<>()).add(caller);
                            }
                        }
                    };
                }
            }, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
        }
        catch (IOException | RuntimeException ex) {
            logger.debug("Could not read the bytecode of {} to look for calls it makes on itself", type.getName(), ex);
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
