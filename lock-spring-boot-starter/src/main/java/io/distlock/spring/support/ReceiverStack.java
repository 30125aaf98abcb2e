package io.distlock.spring.support;

import java.util.ArrayDeque;
import java.util.Deque;

import org.jspecify.annotations.Nullable;

import org.springframework.asm.Opcodes;
import org.springframework.asm.Type;

/**
 * The operand stack of a method being read, reduced to one fact per slot: whether it holds {@code this}. Enough to
 * tell {@code this.generate(…)} from {@code self.generate(…)} on an injected self-reference (the recommended way
 * around a proxy), which name the same method. Instructions it does not model make it unknown until the next stack
 * map frame gives the stack again; while unknown, every receiver counts as {@code this}, as if nothing were known.
 */
final class ReceiverStack {

    private final Deque<Boolean> slots = new ArrayDeque<>();

    private boolean known = true;

    /** Pushes slots that do not hold {@code this}. */
    void push(int size) {
        for (int i = 0; i < size; i++) {
            slots.push(false);
        }
    }

    void pushLoad(int var, boolean instanceMethod) {
        slots.push(instanceMethod && var == 0);
    }

    void pop(int size) {
        for (int i = 0; i < size && known; i++) {
            if (slots.isEmpty()) {
                known = false;
            }
            else {
                slots.pop();
            }
        }
    }

    void dup() {
        if (known && !slots.isEmpty()) {
            slots.push(slots.peek());
        }
        else {
            known = false;
        }
    }

    /** After an instruction this does not model. */
    void unknown() {
        known = false;
    }

    /**
     * A stack map frame: the stack as the class file states it (never {@code this}, which a branch does not keep
     * on the stack in code javac writes).
     */
    void frame(int count, @Nullable Object[] stack) {
        slots.clear();
        for (int i = 0; i < count; i++) {
            Object type = stack[i];
            push(type == Opcodes.LONG || type == Opcodes.DOUBLE ? 2 : 1);
        }
        known = true;
    }

    /**
     * Pops a call's arguments and receiver.
     *
     * @param descriptor the called method's descriptor
     * @param hasReceiver whether it is an instance call
     * @return whether the receiver may be {@code this}: {@code true} when it is, or when the stack is not known
     */
    boolean call(String descriptor, boolean hasReceiver) {
        pop((Type.getArgumentsAndReturnSizes(descriptor) >> 2) - 1);
        boolean onThis = true;
        if (hasReceiver) {
            onThis = !known || slots.isEmpty() || Boolean.TRUE.equals(slots.peek());
            pop(1);
        }
        push(Type.getReturnType(descriptor).getSize());
        return onThis;
    }

    /**
     * Whether the slot {@code depth} below the top (0: the top) may hold {@code this}.
     *
     * @param depth how deep
     * @return {@code true} when it does, or when the stack is not known
     */
    boolean mayBeThis(int depth) {
        if (!known || depth >= slots.size()) {
            return true;
        }
        int i = 0;
        for (Boolean slot : slots) {
            if (i++ == depth) {
                return slot;
            }
        }
        return true;
    }

    static int size(String descriptor) {
        return Type.getType(descriptor).getSize();
    }
}
