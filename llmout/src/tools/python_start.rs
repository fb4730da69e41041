//! Llama 4: pythonic calls inside `<|python_start|>…<|python_end|>`.

use super::family::{Family, Found, Head};
use super::pythonic::read_element;
use super::read::json_elements;
use super::stream::window;

pub(crate) struct PythonStart;

impl Family for PythonStart {
    fn markers(&self) -> &'static [&'static str] {
        &["<|python_start|>"]
    }

    fn read(&self, t: &str, found: &mut Found) {
        for (whole, body) in json_elements(t, 0..t.len(), "<|python_start|>", "<|python_end|>") {
            // The calls heading it, as the stream reads them: a list cut off keeps the calls
            // written in full.
            read_element(t, whole, body, found);
        }
    }

    fn closers(&self) -> &'static [&'static str] {
        &["<|python_end|>"]
    }

    fn head(&self, v: &str, _start: usize, head: usize) -> Head {
        if window(v, head).trim_start().is_empty() {
            return Head::Wait;
        }
        Head::Python(head)
    }
}
