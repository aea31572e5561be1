// PDF.js's parser, as a module worker of our own origin (the CSP's worker-src 'self'): importing it is
// enough, it listens on the worker's port as soon as it loads.
import 'pdfjs-dist/build/pdf.worker.min.mjs';
