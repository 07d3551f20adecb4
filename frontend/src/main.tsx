import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { ApiProvider } from "./api";
import { createWailsApi } from "./api/wails";
import "./styles/base.css";
import { App } from "./App";

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <ApiProvider api={createWailsApi()}>
      <App />
    </ApiProvider>
  </StrictMode>,
);
