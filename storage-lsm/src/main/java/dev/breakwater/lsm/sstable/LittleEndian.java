package dev.breakwater.lsm.sstable;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/** Little-endian short, int and long access to heap byte arrays, without allocation. Stateless. */
final class LittleEndian {

    private static final VarHandle SHORT = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private LittleEndian() {
    }

    static short getShort(byte[] b, int offset) {
        return (short) SHORT.get(b, offset);
    }

    static int getInt(byte[] b, int offset) {
        return (int) INT.get(b, offset);
    }

    static void putInt(byte[] b, int offset, int value) {
        INT.set(b, offset, value);
    }

    static void putLong(byte[] b, int offset, long value) {
        LONG.set(b, offset, value);
    }
}
