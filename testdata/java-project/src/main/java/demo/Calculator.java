package demo;

/** A tiny calculator used by the agent's end-to-end tests. */
public class Calculator {
    /** Returns the sum of a and b. */
    public int add(int a, int b) {
        return a + b;
    }

    /** Returns a minus b. */
    public int subtract(int a, int b) {
        return a - b;
    }
}
