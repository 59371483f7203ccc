package demo;

public class CalculatorTest {
    public static void main(String[] args) {
        if (new Calculator().add(2, 2) != 4) {
            throw new AssertionError("add");
        }
    }
}
